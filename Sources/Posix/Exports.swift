// Posix's users see the pure values beneath it as its own: Time's instants
// and Text's finding and replacing.
@_exported public import Text
@_exported public import Time
