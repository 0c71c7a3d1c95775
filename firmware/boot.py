# Runs first at every power-up: kept tiny and never updated over the air.
# bootsel.py (beside it, never updated either) picks the application slot,
# counts a trial boot or rolls a version back that never confirmed itself.
import bootsel

bootsel.boot()
