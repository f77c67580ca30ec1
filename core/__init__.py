"""What both apps use and that knows neither: errors, fonts, spreadsheet safety, upload forms."""
