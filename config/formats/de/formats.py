# Dates with the month's name, as in English (config/formats/en): "2. Dez 2026".
DATE_FORMAT = "j. M Y"
SHORT_DATE_FORMAT = "j. M Y"
DATETIME_FORMAT = "j. M Y, H:i"
SHORT_DATETIME_FORMAT = "j. M Y, H:i"
TIME_FORMAT = "H:i"
