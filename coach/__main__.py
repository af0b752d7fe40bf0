import gc
import os
import sys

if sys.argv[1:2] == ["analyze"]:
    # No cyclic garbage collection while the command starts: importing numpy
    # and the tables makes hundreds of thousands of objects, none of them
    # garbage, and the collector walked them again and again (3% of a lean
    # batch's instructions; issue 26). `coach.cli.batch` turns it back on,
    # the start-up's objects frozen, before the first rack.
    gc.disable()

from coach.cli import main

code = main()
if sys.argv[1:2] == ["analyze"]:
    # Skip the interpreter's teardown, a fifth of a lean batch's whole CPU
    # (freeing the card's readings and numpy's modules: about 20 ms against
    # about 110 ms for everything else with no rack; issue 26). `analyze`
    # leaves nothing to tear down: it holds no file, thread or temporary
    # folder, and the disk cache's file is written whole before it returns.
    # Output not yet flushed is flushed here; if that fails, the usual exit
    # reports it.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        raise SystemExit(code) from None
    os._exit(code)
raise SystemExit(code)
