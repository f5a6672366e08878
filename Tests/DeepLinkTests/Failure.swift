import DeepLink

/// The error `body` throws, or `nil` when it returns.
func failure<T>(_ body: () throws(DeepLinkError) -> T) -> DeepLinkError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}

/// The code and offset of the error `body` throws, for comparing in one `#expect`.
func codeAndOffset<T>(_ body: () throws(DeepLinkError) -> T) -> String {
  guard let error = failure(body) else { return "no error" }
  return "\(error.code)@\(error.offset)"
}
