/// Number matching: the new device or browser shows one number, the approving device offers three, and only the
/// one shown approves; so a user cannot approve blindly.
enum NumberMatching {
    /// Three distinct numbers from 10 to 99 in random order, and the right one among them.
    static func draw() -> (number: Int, numbers: [Int]) {
        var numbers: Set<Int> = []
        while numbers.count < 3 { numbers.insert(Int.random(in: 10...99)) }
        let shuffled = numbers.shuffled()
        return (shuffled.randomElement() ?? shuffled[0], shuffled)
    }
}
