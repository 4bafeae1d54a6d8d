"""Package data: the seed metadata here; in an installed wheel also ``prompts/`` and ``seeds/``."""
