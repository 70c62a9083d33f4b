#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import Metrics
import Logging
import NIOPosix
import SQLKit
import ServiceLifecycle
import Synchronization

/// The one SQLite writer: transactions queue here and run in batches (a group commit), on the task of ``run()``.
///
/// A batch is one `BEGIN IMMEDIATE … COMMIT` in which each queued transaction runs in a savepoint of its own, so that a
/// failing one is undone alone while the others commit together. Transactions that arrive while a batch runs form the
/// next batch, so the writer never waits for a lock hand-over between them.
///
/// Durability: the connection runs with synchronous = NORMAL, so `COMMIT` writes the batch to the WAL file without
/// waiting for the disk; the WAL is then flushed (fsync) on a thread of its own, and no transaction of the batch returns
/// before that flush is done. Nothing is acknowledged before it is on disk, as with synchronous = FULL, but the next
/// batch runs during the flush instead of after it. Flushes run in batch order and the WAL is written in order, so a
/// flush also covers every earlier batch. (A read may see a batch while it is being flushed, before its writers are
/// answered; anything written because of that read goes into a later batch, whose flush comes after.)
final class GroupCommitWriter: Sendable {
    private struct Pending: Sendable {
        let statements: @Sendable (any SQLDatabase) async throws -> Void
        /// Tells the caller the outcome once the batch is on disk (or has failed).
        let finish: @Sendable (Result<Void, any Error>) -> Void
    }

    /// Set while the writer runs transactions, so that one trying to start another fails instead of waiting for itself.
    @TaskLocal private static var isWriting = false

    private let connection: SQLiteConnection
    private let database: SQLiteDatabase
    private let queue = RunQueue<Pending>()
    /// The first failed flush. After it nothing more is written or acknowledged: on Linux a failed fsync may drop the
    /// unwritten pages and report the next fsync as a success, so a later flush proves nothing.
    private let brokenBy = Mutex<(any Error)?>(nil)
    private let wal: WALFile
    private let checkpointer: Checkpointer
    private let timer: TransactionTimer
    private let logger: Logger

    /// Prepares the writer; nothing runs before ``run()``.
    /// - Parameters:
    ///   - connection: a connection in WAL mode, used by nothing else from now on.
    ///   - checkpointConnection: another connection to the same database, for checkpoints.
    ///   - timer: records each batch, from `BEGIN` until it is on disk.
    package init(
        connection: SQLiteConnection, checkpointConnection: SQLiteConnection, walPath: String,
        timer: TransactionTimer = TransactionTimer(factory: NOOPMetricsHandler.instance), logger: Logger
    ) throws {
        try connection.execute("PRAGMA synchronous = NORMAL")
        try checkpointConnection.execute("PRAGMA synchronous = NORMAL")
        self.connection = connection
        self.database = SQLiteDatabase(source: .connection(connection), logger: logger)
        self.wal = WALFile(path: walPath)
        self.checkpointer = Checkpointer(connection: checkpointConnection)
        self.timer = timer
        self.logger = logger
        connection.recordWALSize(in: checkpointer.walSize)
    }

    /// Runs `body` in a savepoint of the next batch; returns once the batch is on disk.
    ///
    /// `body` must use `database` only until it returns, from its own task, and must not start another write.
    /// - Throws: `SQLiteError` at once when ``run()`` has not started or has been asked to stop.
    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        guard !Self.isWriting else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "a write cannot start another write (it would wait for itself)")
        }
        if let broken = brokenBy.withLock({ $0 }) { throw Self.broken(broken) }
        let result = ResultSlot<T>()
        return try await withCheckedThrowingContinuation { continuation in
            let pending = Pending(
                statements: { database in result.store(try await body(database)) },
                finish: { outcome in continuation.resume(with: outcome.flatMap { result.take() }) })
            do throws(RunQueue<Pending>.Refusal) {
                try queue.submit(pending)
            } catch {
                continuation.resume(throwing: Self.refused(error))
            }
        }
    }

    /// Waits until ``run()`` takes transactions.
    /// - Throws: `SQLiteError` when it has ended first.
    func started() async throws {
        do {
            try await queue.started()
        } catch let refusal as RunQueue<Pending>.Refusal {
            throw Self.refused(refusal)
        }
    }

    /// Writes the transactions queued from now on until a graceful shutdown or cancellation, then the ones still
    /// queued, waits for their flushes and closes the connections. The flush and checkpoint threads run only in here.
    /// - Throws: `SQLiteError` when the writer ran before: it runs once.
    func run() async throws {
        do throws(RunQueue<Pending>.Refusal) {
            try queue.open()
        } catch {
            throw Self.refused(error)
        }
        let flusher = NIOThreadPool(numberOfThreads: 1)
        let checkpoints = NIOThreadPool(numberOfThreads: 1)
        flusher.start()
        checkpoints.start()
        await withTaskCancellationOrGracefulShutdownHandler {
            await Self.$isWriting.withValue(true) {
                while let batch = await queue.next() {
                    await write(batch, flusher: flusher, checkpoints: checkpoints)
                }
            }
        } onCancelOrGracefulShutdown: {
            self.queue.close()
        }
        // The flusher runs its work in order: once this one has run, every earlier flush has finished.
        await withCheckedContinuation { continuation in flusher.submit { _ in continuation.resume() } }
        try await flusher.shutdownGracefully()
        try await checkpoints.shutdownGracefully()
        checkpointer.close()
        connection.close()
        wal.closeDescriptor()
    }

    /// Runs one batch and hands its flush to `flusher`, which answers its transactions.
    private func write(_ batch: [Pending], flusher: NIOThreadPool, checkpoints: NIOThreadPool) async {
        if let broken = brokenBy.withLock({ $0 }) {
            for pending in batch {
                pending.finish(.failure(Self.broken(broken)))
            }
            return
        }
        restartWALIfLong()
        let start = ContinuousClock.now
        var failure: (any Error)?
        var outcomes: [Result<Void, any Error>] = []
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            failure = error
        }
        for pending in batch {
            if let failure {
                // After a failure the transaction may be gone; statements run now would commit on their own.
                outcomes.append(.failure(failure))
            } else {
                outcomes.append(await runInSavepoint(pending, failure: &failure))
            }
        }
        if failure == nil {
            do {
                try connection.execute("COMMIT")
                checkpointer.checkpointIfDue(on: checkpoints, logger: logger)
            } catch {
                failure = error
            }
        }
        let finishes = batch.map(\.finish)
        if let failure {
            try? connection.execute("ROLLBACK")
            for finish in finishes {
                finish(.failure(failure))
            }
            return
        }
        flusher.submit { [self, outcomes] state in
            let flushed: Result<Void, any Error>
            if case .cancelled = state {
                flushed = .failure(SQLiteError(code: SQLITE_ERROR, message: "the database is closing"))
            } else if let broken = brokenBy.withLock({ $0 }) {
                flushed = .failure(Self.broken(broken))
            } else {
                flushed = Result { try wal.flush() }
                if case .failure(let error) = flushed {
                    brokenBy.withLock { $0 = $0 ?? error }
                    logger.critical(
                        "committed writes could not be flushed to disk; refusing every write until restarted",
                        metadata: ["error": "\(error)"])
                }
            }
            timer.record(since: start)
            for (finish, outcome) in zip(finishes, outcomes) {
                finish(flushed.flatMap { outcome })
            }
        }
    }

    private static func refused(_ refusal: RunQueue<Pending>.Refusal) -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: "the database \(refusal)")
    }

    private static func broken(_ cause: any Error) -> SQLiteError {
        SQLiteError(code: SQLITE_IOERR, message: "writes are refused since a flush to disk failed (\(cause)); restart the server")
    }

    /// Lets the WAL start over once it is long.
    ///
    /// The checkpoints beside the writer copy the WAL into the database but can never finish while the writer keeps
    /// appending, and SQLite starts the WAL over only after a finished one: without this the WAL would grow for as long
    /// as writes never pause. Between two batches nothing is appended, so a restarting checkpoint here finishes (it
    /// waits for readers to move to the newest snapshot, a matter of microseconds) and has little left to copy.
    ///
    /// A reader that keeps an old snapshot (another process, a backup) can hold the restart up: it then waits 20 ms at
    /// most, and is tried again once the WAL has grown by another ``Checkpointer/interval`` pages.
    private func restartWALIfLong() {
        guard checkpointer.restartIsDue() else { return }
        connection.setBusyTimeout(milliseconds: 20)
        defer { connection.setBusyTimeout(milliseconds: SQLiteConnection.busyTimeoutMilliseconds) }
        do {
            if try !connection.checkpoint(restart: true) { checkpointer.restartWasHeldUp() }
        } catch {
            checkpointer.restartWasHeldUp()
            logger.error("WAL checkpoint failed", metadata: ["error": "\(error)"])
        }
    }

    /// Runs one transaction's statements in a savepoint; its failure undoes its statements only.
    private func runInSavepoint(_ pending: Pending, failure: inout (any Error)?) async -> Result<Void, any Error> {
        do {
            try connection.execute("SAVEPOINT member")
        } catch {
            failure = error
            return .failure(error)
        }
        do {
            try await pending.statements(database)
            try connection.execute("RELEASE member")
            return .success(())
        } catch {
            do {
                try connection.execute("ROLLBACK TO member")
                try connection.execute("RELEASE member")
            } catch {
                // SQLite may have rolled the whole transaction back (I/O error, disk full): the batch cannot commit.
                failure = error
            }
            return .failure(error)
        }
    }
}

/// The WAL's size in pages, as the writer's last commit left it.
final class WALSize: Sendable {
    private let pages = Atomic<Int>(0)

    package var current: Int { pages.load(ordering: .relaxed) }

    package func record(pages count: Int) {
        pages.store(count, ordering: .relaxed)
    }
}

/// Copies the WAL into the database file on a thread of its own, so that neither the writer nor the flushes wait for
/// it, and tells the writer when to make the WAL start over.
///
/// It runs once the WAL has grown by ``interval`` pages since the last checkpoint, as SQLite's automatic checkpoint
/// would, but beside the writer instead of inside its `COMMIT`. A passive checkpoint copies only frames no reader
/// still needs, and never finishes while the writer keeps appending; the writer therefore makes the WAL start over
/// between two batches once it reaches ``restartLength`` pages.
private final class Checkpointer: Sendable {
    static let interval = 1_000
    static let restartLength = 4_000
    let walSize = WALSize()
    private let connection: SQLiteConnection
    private struct Progress {
        /// The WAL's size at the last checkpoint started here.
        var checkpointedAt = 0
        /// The WAL's size when a restart was last held up by a reader.
        var restartHeldUpAt: Int?
        /// Whether a passive checkpoint is scheduled or running: a restart now would find it in the way, and could
        /// not tell it from a reader that holds an old snapshot.
        var copying = false
    }
    private let progress = Mutex(Progress())

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Starts a passive checkpoint on `thread` when the WAL has grown enough. Called after each commit.
    func checkpointIfDue(on thread: NIOThreadPool, logger: Logger) {
        let pages = walSize.current
        let due = progress.withLock { progress in
            // A smaller WAL has started over from its beginning.
            if pages < progress.checkpointedAt {
                progress.checkpointedAt = 0
                progress.restartHeldUpAt = nil
            }
            guard !progress.copying, pages - progress.checkpointedAt >= Self.interval else { return false }
            progress.checkpointedAt = pages
            progress.copying = true
            return true
        }
        guard due else { return }
        thread.submit { [self] state in
            defer { progress.withLock { $0.copying = false } }
            guard case .active = state else { return }
            do {
                try connection.checkpoint(restart: false)
            } catch {
                logger.error("WAL checkpoint failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Whether the writer should make the WAL start over before its next batch.
    func restartIsDue() -> Bool {
        let pages = walSize.current
        return progress.withLock { progress in
            guard pages >= Self.restartLength, !progress.copying else { return false }
            return progress.restartHeldUpAt.map { pages >= $0 + Self.interval } ?? true
        }
    }

    func restartWasHeldUp() {
        let pages = walSize.current
        progress.withLock { $0.restartHeldUpAt = pages }
    }

    /// Closes the checkpoint connection, once the checkpoint thread has stopped.
    func close() {
        connection.close()
    }
}

/// A transaction's value, from the writer's task to the caller's.
private final class ResultSlot<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)

    func store(_ newValue: T) {
        value.withLock { $0 = newValue }
    }

    func take() -> Result<T, any Error> {
        guard let stored = value.withLock({ $0.take() }) else {
            return .failure(SQLiteError(code: SQLITE_ERROR, message: "a transaction finished without a value"))
        }
        return .success(stored)
    }
}

/// The WAL file, opened a second time to flush it: fsync works on the file, whichever descriptor names it.
private final class WALFile: Sendable {
    private let path: String
    private let descriptor = Mutex<Int32?>(nil)

    init(path: String) {
        self.path = path
    }

    /// Waits until everything written to the WAL so far is on disk.
    func flush() throws {
        let descriptor = try descriptor.withLock { descriptor in
            if let descriptor { return descriptor }
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Self.error("cannot open", path) }
            do {
                // The first flush also makes the WAL's directory entry durable (SQLite creates the file on first use).
                try Self.syncDirectory(of: path)
            } catch {
                _ = close(opened)
                throw error
            }
            descriptor = opened
            return opened
        }
        guard fsync(descriptor) == 0 else { throw Self.error("cannot flush", path) }
    }

    func closeDescriptor() {
        descriptor.withLock { descriptor in
            if let descriptor { _ = close(descriptor) }
            descriptor = nil
        }
    }

    private static func syncDirectory(of path: String) throws {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
        let opened = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else { throw error("cannot open the directory", directory) }
        defer { _ = close(opened) }
        guard fsync(opened) == 0 else { throw error("cannot flush the directory", directory) }
    }

    private static func error(_ what: String, _ path: String) -> SQLiteError {
        SQLiteError(code: SQLITE_IOERR, message: "\(what) \(path): errno \(errno)")
    }
}
