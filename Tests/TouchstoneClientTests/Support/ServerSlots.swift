/// How many live servers the client tests run at once.
///
/// Every server does bcrypt (its decoy hash when it opens, then passwords and PINs) on the process's shared two-thread
/// pool. With every test's server at once, that queue grew to more than the SDK's 40-second transport timeout on a
/// loaded machine (at cost 12), and requests failed although nothing was wrong; a few servers at a time keep it short.
/// At the tests' cost 4 a server spends most of its time waiting (its database, the SDK's requests), so eight at a
/// time keep two cores busier than four did (on a loaded machine 38 s against 44-48 s for the target).
actor ServerSlots {
    static let shared = ServerSlots(count: 8)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        free = count
    }

    /// Runs `body` once a slot is free, and frees it afterwards.
    nonisolated func withSlot<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
