import os
import sys

# tests/ on the path, as the other test modules do, for `reference` and `precision.oracle`.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
