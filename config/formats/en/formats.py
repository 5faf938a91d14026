# Dates the same for every English reader, whatever their browser's country: "2 Dec 2026",
# never "12/02/2026" (Django's en formats are American).
DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
