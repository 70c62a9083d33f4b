/// How often a user's devices may be asked to approve something (new devices, web logins): one request pending at a
/// time, at most `perWindow` per `window` seconds, and none for `coolDown` seconds after a denial.
package struct ApprovalLimits: Sendable {
    let perWindow: Int
    package let window: Int64
    package let coolDown: Int64

    package static let standard = ApprovalLimits(perWindow: 5, window: 3_600, coolDown: 900)
}
