# The laptop's history of games across evenings and devices: the database, statistics, charts, reports.
