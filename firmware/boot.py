# Runs first at every power-up: kept tiny and never updated over the air.
