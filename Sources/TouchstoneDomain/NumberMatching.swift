/// Number matching: the new device or browser shows one number, the approving device offers three, and only the
/// one shown approves; so a user cannot approve blindly.
enum NumberMatching {
    /// Three distinct numbers from 10 to 99 in random order, and the right one among them.
    static func draw(using random: any RandomSource) -> (number: Int, numbers: [Int]) {
        var generator = Generator(source: random)
        var numbers: Set<Int> = []
        while numbers.count < 3 { numbers.insert(Int.random(in: 10...99, using: &generator)) }
        // Sorted first: a set's order differs from one process to the next, and a pinned source must pin the draw.
        let shuffled = numbers.sorted().shuffled(using: &generator)
        return (shuffled.randomElement(using: &generator) ?? shuffled[0], shuffled)
    }
}
