# The one form of a date and of a date with a time, on every page, printout and workbook:
# "14 March 2026" and "14 March 2026, 14:27" (Django's own English forms are "Sept. 14, 2026"
# and "Dec. 1, 2026, 2:23 p.m."). The templates print dates and times through these settings,
# and core/formats.py prints them for the PDFs, workbooks and messages through the same ones.
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = DATE_FORMAT
TIME_FORMAT = "H:i"
DATETIME_FORMAT = f"{DATE_FORMAT}, {TIME_FORMAT}"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
