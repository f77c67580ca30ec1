"""What the tests' users have in common."""

# The password of every user a test creates with one (make_user, the organiser fixture).
PASSWORD = "a-long-test-password-9"
