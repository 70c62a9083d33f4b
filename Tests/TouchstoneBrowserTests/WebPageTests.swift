import Testing

/// The web page at `GET /` in headless Chromium against `touchstone serve`. One browser at a time: two cores cannot
/// carry several Chromiums and bcrypt at once.
@Suite("Web page in Chromium", .serialized, .timeLimit(.minutes(5)))
struct WebPageTests {}
