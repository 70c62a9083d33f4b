/// The test server could not bind its port.
struct ServerDidNotStart: Error, CustomStringConvertible {
    let reason: String
    var description: String { "the test server did not start: \(reason)" }
}
