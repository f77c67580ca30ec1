# Dates read the same on every page, printout and workbook: "March 14, 2026" (Django's own
# English form abbreviates some months, "Sept. 14, 2026"). core/formats.py prints them for PDFs
# and workbooks through this same setting.
DATE_FORMAT = "F j, Y"
SHORT_DATE_FORMAT = "F j, Y"
