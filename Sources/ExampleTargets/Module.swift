// Placeholder: this module is being built (see the issues).
