import sys

from fast_wordpiece.cli import main

sys.exit(main())
