"""ICML 2024 paper assistant."""
