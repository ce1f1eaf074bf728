"""The Tokyo table kit companion: a Flask app phones open at the table."""
