import Dispatch
import GraphFuzzEngine

/// A thumbnail cache in front of a slow download: two requests for one picture that miss together must not
/// download it twice.
public actor ThumbnailCache {
    /// How the cache keeps a second request from downloading again.
    public enum Design: Sendable {
        /// Check the dictionary, await the download, store the result: a check-then-act across the await (the
        /// download is another actor's, so the cache takes other requests meanwhile). The bug.
        case checkThenAct
        /// The usual fix: the first miss stores its download as an unstructured `Task` in the dictionary, and
        /// later requests await that task. The task is isolated to the cache and sleeps (a fake network delay).
        case inFlightTask
        /// The usual fix over a callback API: the download is a Dispatch completion handler bridged with
        /// `withCheckedContinuation`, so the picture comes back from a Dispatch thread.
        case callbackInFlightTask
    }

    public let design: Design
    /// How long a download sleeps (`inFlightTask`), on the case's virtual clock.
    public let latency: Duration
    /// Ids in the order their downloads began.
    public private(set) var downloads: [Int] = []
    private var thumbnails: [Int: String] = [:]
    private var inFlight: [Int: Task<String, Never>] = [:]
    private let network = FakeNetwork()

    public init(_ design: Design, latency: Duration = .milliseconds(30)) {
        self.design = design
        self.latency = latency
    }

    /// The thumbnail of picture `id`, downloaded once.
    public func thumbnail(_ id: Int) async -> String {
        if let thumbnail = thumbnails[id] { return thumbnail }                   // check
        switch design {
        case .checkThenAct:
            downloads.append(id)
            let thumbnail = await network.fetch(id)                              // suspend: other requests miss too
            thumbnails[id] = thumbnail                                           // act
            return thumbnail
        case .inFlightTask, .callbackInFlightTask:
            if let running = inFlight[id] { return await running.value }
            let download = Task { await self.download(id) }
            inFlight[id] = download
            let thumbnail = await download.value
            thumbnails[id] = thumbnail
            inFlight[id] = nil
            return thumbnail
        }
    }

    /// Runs inside the in-flight task, isolated to the cache.
    private func download(_ id: Int) async -> String {
        downloads.append(id)
        if design == .callbackInFlightTask {
            return await withCheckedContinuation { continuation in
                FakeNetwork.load(id) { continuation.resume(returning: $0) }
            }
        }
        try? await Task.sleep(for: latency)
        return "thumbnail \(id)"
    }
}

/// The download side: an actor to await (so the cache is free meanwhile), and a callback API that completes
/// on a Dispatch queue.
actor FakeNetwork {
    private(set) var requests = 0

    func fetch(_ id: Int) -> String {
        requests += 1
        return "thumbnail \(id)"
    }

    /// A completion-handler API, as older SDKs have them: the handler runs on a Dispatch thread.
    nonisolated static func load(_ id: Int, completion: @escaping @Sendable (String) -> Void) {
        DispatchQueue.global().async { completion("thumbnail \(id)") }
    }
}

/// Two requests for one picture: A asks at once; B first asks for `headStart` pictures of its own, then for A's.
public enum DuplicateDownload {
    public static func branches(_ cache: ThumbnailCache, headStart: Int) -> [ScheduledBranch<String>] {
        [
            ScheduledBranch("A") { await cache.thumbnail(1) },
            ScheduledBranch("B") {
                for other in 0..<headStart { _ = await cache.thumbnail(100 + other) }
                return await cache.thumbnail(1)
            },
        ]
    }

    /// One scheduled run: the run, what each request got and the downloads of picture 1.
    public static func run(_ draw: Draw, _ design: ThumbnailCache.Design, options: Scheduler.Options = .init(), headStart: Int = 0)
    -> (run: ScheduledRun<Void>, results: [String?], downloads: Int) {
        let cache = ThumbnailCache(design)
        let (run, branches) = Scheduler(draw: draw, options: options).runConcurrently(branches(cache, headStart: headStart))
        let downloads = Scheduler(draw: Draw(replaying: ChoiceSequence([]))).run { await cache.downloads }.value ?? []
        return (run, branches.map(\.result), downloads.filter { $0 == 1 }.count)
    }
}
