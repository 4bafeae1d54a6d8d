"""``python -m assistant.model_server [flags]``: llama-cpp-python's OpenAI-compatible server for
deployments where many app processes share one model (``ASSISTANT_LLM_URL``).

It is ``python -m llama_cpp.server`` with two differences: ``--model`` defaults to the packaged
SmolLM2 GGUF, and models load without the AMX weight buffers that crash llama.cpp on some Xeon
machines (``assistant.llm.avoid_amx_buffers``). Every other flag is llama_cpp.server's own
(``--host``, ``--port``, ``--n_ctx``, ...). Needs the ``deploy`` extra.
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Sequence

from assistant.llm import LLMError, avoid_amx_buffers, packaged_model_path


def server_argv(argv: Sequence[str]) -> list[str]:
    """llama_cpp.server's arguments: ``argv``, with the packaged model unless one is named."""
    named = any(a == "--model" or a.startswith("--model=") for a in argv)
    return list(argv) if named else ["--model", str(packaged_model_path()), *argv]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server in this process until it is stopped."""
    try:
        args = server_argv(sys.argv[1:] if argv is None else argv)
        import llama_cpp.server  # noqa: F401  (the deploy extra; checked before anything starts)
    except LLMError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ImportError:
        print("error: llama_cpp.server is not installed: pip install 'icml-assistant[deploy]'", file=sys.stderr)
        return 2
    avoid_amx_buffers()
    sys.argv = ["llama_cpp.server", *args]
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
