import sys

from hexwar.cli import main

sys.exit(main())
