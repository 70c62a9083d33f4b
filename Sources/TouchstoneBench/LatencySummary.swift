/// Latency percentiles in milliseconds (nearest rank).
public struct LatencySummary: Codable, Sendable, Equatable {
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

    /// Summarises samples; all zero when there are none.
    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func rank(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        p50 = rank(0.50)
        p90 = rank(0.90)
        p99 = rank(0.99)
        max = sorted.last ?? 0
    }
}
