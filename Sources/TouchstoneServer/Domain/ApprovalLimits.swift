/// How often a user's devices may be asked to approve something (new devices, web logins): one request pending at a
/// time, at most `perWindow` per `window` seconds, and none for `coolDown` seconds after a denial.
struct ApprovalLimits: Sendable {
    let perWindow: Int
    let window: Int64
    let coolDown: Int64

    static let standard = ApprovalLimits(perWindow: 5, window: 3_600, coolDown: 900)

    /// Three distinct numbers from 10 to 99 in random order, and the right one among them.
    static func numberMatching() -> (number: Int, numbers: [Int]) {
        var numbers: Set<Int> = []
        while numbers.count < 3 { numbers.insert(Int.random(in: 10...99)) }
        let shuffled = numbers.shuffled()
        return (shuffled.randomElement() ?? shuffled[0], shuffled)
    }
}
