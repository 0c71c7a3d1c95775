# The board profiles on the laptop: checked, turned into wiring tables, diagrams and parts lists; `tafel calibrate`.
