// No code: this target carries the `gif` executable's Linux release link
// flags (see Package.swift), so that they reach the `gif` product alone and
// not the test executables that link the command's code.
