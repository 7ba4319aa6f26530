// The service exists only with the package trait Service (`swift build --traits Service`), so
// that a package depending on ReminderCompiler resolves none of its HTTP packages.
#if Service
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
@_spi(Tooling) import ReminderCompiler
import ServiceLifecycle

/// `remindc serve`: the compiler as a stateless HTTP service (Hummingbird 2). Each request
/// carries everything it needs, and no request changes another's answer (the checks of
/// recent configs are kept only to skip checking them again), so the service scales
/// by running more identical instances behind any load balancer.
///
/// - `POST /v1/check`: a config (plist or JSON) → `{"ok", "diagnostics"}`
/// - `POST /v1/plan`: a job (as a `remindc batch` line) → `{"id", "ok", "plan", "diff", "diagnostics"}`
/// - `POST /v1/ics?style=expanded|recurring`: a job → `text/calendar`
/// - `GET /healthz`, `GET /metrics` (Prometheus text), and `HEAD` of both
///
/// Answers: 200; 400 for a job that is not JSON or lacks `now`; 413 for a body over the
/// limit; 422 for a config or events with errors (diagnostics with lines and columns into
/// the submitted text); 503 when a request runs over the time limit.
public struct RemindcServer: Sendable {
    /// Limits that keep one request from taking the service down.
    public struct Limits: Sendable {
        /// The largest request body.
        public var maximumBodyBytes: Int
        /// How long one request may compute.
        public var timeLimit: Duration
        /// How long a connection may go without a complete request head, while it is being
        /// sent or between requests: then it is closed, so that slow or silent clients
        /// cannot hold connections.
        public var idleTimeout: Duration
        /// How long the service goes on after SIGTERM or SIGINT to finish the answers under
        /// way; what is still unfinished then is cut, and `run` throws ``AnswersCut``.
        public var gracePeriod: Duration
        /// How long a request's body may take to arrive once its head has: a client that
        /// sends its body slowly is answered 408 and disconnected (the idle timeout alone
        /// would let a byte every few seconds hold the connection for good).
        public var bodyTimeout: Duration
        /// The most connections open at once, so that clients cannot exhaust the service's
        /// file descriptors (1 024 by default on Linux). A connection past it takes the
        /// place of the one that has waited longest between requests (or for its first
        /// request's head), which is closed; when every connection has a request under way,
        /// new ones wait in the listen queue until one closes.
        public var maximumConnections: Int

        public init(
            maximumBodyBytes: Int = 16 << 20, timeLimit: Duration = .seconds(10), idleTimeout: Duration = .seconds(30),
            gracePeriod: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30), maximumConnections: Int = 512
        ) {
            self.maximumBodyBytes = maximumBodyBytes
            self.timeLimit = timeLimit
            self.idleTimeout = idleTimeout
            self.gracePeriod = gracePeriod
            self.bodyTimeout = bodyTimeout
            self.maximumConnections = maximumConnections
        }
    }

    public var host: String
    public var port: Int
    public var limits: Limits

    public init(host: String = "127.0.0.1", port: Int = 8080, limits: Limits = Limits()) {
        self.host = host
        self.port = port
        self.limits = limits
    }

    /// Serves until SIGTERM or SIGINT; then it accepts no connection, finishes the answers
    /// under way for up to the grace period, and returns. `onListening` gets the port bound
    /// (useful with port 0).
    ///
    /// - Throws: ``AnswersCut`` when the grace period ended before every answer was sent
    ///   whole, or a connection broke off an answer during the shutdown.
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let metrics = ServiceMetrics()
        let answers = AnswerTracker()
        let router = Router()
        // Each path with the methods it takes, as the routes are registered: the 405
        // answers and their `Allow` headers come from it.
        var allowed: [String: [HTTPRequest.Method]] = [:]
        // A resource to read takes GET and HEAD (RFC 9110 requires both of a
        // general-purpose server); HEAD answers GET's status and headers, its length included.
        func readable(_ path: String, _ answer: @escaping @Sendable () -> Response) {
            allowed["/" + path] = [.get, .head]
            router.get(RouterPath(path)) { _, _ in answer() }
            router.head(RouterPath(path)) { _, _ in
                let full = answer()
                return Response(status: full.status, headers: full.headers, body: .init())
            }
        }
        func action(_ path: String, _ answer: @escaping @Sendable (Request) async -> Response) {
            allowed["/" + path] = [.post]
            router.post(RouterPath(path)) { request, _ in await answer(request) }
        }
        readable("healthz") {
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        readable("metrics") {
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
        }
        let limits = self.limits
        // Clients re-plan with the config they sent before: the checks of recent configs
        // are kept (see `CheckedConfigs`), which changes no answer.
        let checkedConfigs = CheckedConfigs()
        let checkMetrics = metrics.endpoint("check"), planMetrics = metrics.endpoint("plan"), icsMetrics = metrics.endpoint("ics")
        action("v1/check") { request -> Response in
            await checkMetrics.measure {
                let body = try await Self.body(of: request, accepting: .config, limits: limits)
                let zone = request.uri.queryParameters.get("timeZone")
                let result = await Self.withTimeLimit(limits.timeLimit) { _ in
                    PlanJob.check(body, options: ConfigOptions(timeZoneOverride: zone))
                }
                guard let result else { return Self.tooSlow(limits) }
                return Self.json(result.json, status: result.ok ? .ok : .unprocessableContent)
            }
        }
        action("v1/plan") { request -> Response in
            await planMetrics.measure {
                let job = try Self.job(try await Self.body(of: request, accepting: .job, limits: limits))
                guard var result = await Self.withTimeLimit(limits.timeLimit, { job.result(stopSignal: $0, checkedConfigs: checkedConfigs) }) else { return Self.tooSlow(limits) }
                // The line feed goes onto the line's own storage: `line + [0x0A]` copied the answer.
                result.line.append(0x0A)
                return answers.response(status: result.ok ? .ok : .unprocessableContent, contentType: "application/json", bytes: result.line)
            }
        }
        action("v1/ics") { request -> Response in
            await icsMetrics.measure {
                let styleName = request.uri.queryParameters.get("style") ?? "expanded"
                guard let style = ICalendarStyle(rawValue: styleName) else {
                    throw ServiceError(status: .badRequest, message: "unknown style '\(styleName)'; expected expanded or recurring")
                }
                let job = try Self.job(try await Self.body(of: request, accepting: .job, limits: limits))
                guard let calendar = await Self.withTimeLimit(limits.timeLimit, { job.calendar(style: style, stopSignal: $0, checkedConfigs: checkedConfigs) }) else { return Self.tooSlow(limits) }
                switch calendar {
                case .success(let bytes):
                    return answers.response(status: .ok, contentType: "text/calendar; charset=utf-8", bytes: bytes)
                case .failure(let failure):
                    return Self.json(PlanJob.failure(failure.diagnostics), status: .unprocessableContent)
                }
            }
        }
        // Added after the routes, it wraps only the answer to a request that matched none.
        router.add(middleware: MethodCheck<BasicRequestContext>(methods: allowed))
        var logger = Logger(label: "remindc")
        logger.logLevel = .warning
        let connections = ConnectionRegistry(maximum: limits.maximumConnections)
        let app = Application(
            router: router,
            server: .http1(configuration: .init(
                additionalChannelHandlers: [
                    FinishWritesBeforeClose(drainLimit: limits.gracePeriod, answers: answers), ConnectionActivity(registry: connections),
                ],
                idleTimeout: .nanoseconds(Int64(limits.idleTimeout.components.seconds) * 1_000_000_000
                    + limits.idleTimeout.components.attoseconds / 1_000_000_000)
            )),
            configuration: .init(
                address: .hostname(host, port: port), serverName: "remindc",
                // One past the cap is accepted, to take the place of an idle one (see
                // ConnectionRegistry); the cap holds once that one is closed.
                availableConnectionsDelegate: .maximum(limits.maximumConnections + 1, logger: logger)
            ),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) }, logger: logger
        )
        // On SIGTERM or SIGINT the server stops accepting and lets each connection finish the
        // answer under way; past the grace period the group cancels what is left.
        var configuration = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = limits.gracePeriod
        configuration.maximumCancellationDuration = .seconds(2)
        try await ServiceGroup(configuration: configuration).run()
        let unfinished = answers.unfinished
        if unfinished > 0 { throw AnswersCut(count: unfinished, gracePeriod: limits.gracePeriod) }
    }

    /// What a route's body may be declared as. A body without a declared type is read
    /// as well; any other type is refused with 415 before the body is read, so that a
    /// client learns at once that it sends the wrong thing.
    struct AcceptedBody: Sendable {
        /// The exact media types (lower case, without parameters).
        let mediaTypes: [String]
        /// Structured-syntax suffixes (RFC 6839) taken as the format they name.
        let suffixes: [String]

        /// A job: JSON.
        static let job = AcceptedBody(mediaTypes: ["application/json"], suffixes: ["+json"])
        /// A config: JSON, or a plist, which is XML.
        static let config = AcceptedBody(
            mediaTypes: ["application/json", "application/xml", "text/xml", "application/x-plist"], suffixes: ["+json", "+xml"]
        )

        func accepts(_ mediaType: String) -> Bool {
            mediaTypes.contains(mediaType) || suffixes.contains { mediaType.count > $0.count && mediaType.hasSuffix($0) }
        }
    }

    static func body(of request: Request, accepting accepted: AcceptedBody, limits: Limits) async throws -> [UInt8] {
        if let declared = request.headers[.contentType] {
            let mediaType = declared.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            guard accepted.accepts(mediaType) else {
                let named = (accepted.mediaTypes + accepted.suffixes.map { "…" + $0 }).joined(separator: ", ")
                throw ServiceError(
                    status: .unsupportedMediaType,
                    message: "a body of type '\(VisibleText.escaped(String(declared.prefix(100))))' is not read here; declare it as one of: \(named)"
                )
            }
        }
        // A body over the limit is not read: the answer closes the connection, so that its
        // rest is not read either and the connection's descriptor is freed at once.
        let tooLarge = ServiceError(
            status: .contentTooLarge, message: "the body is larger than the limit of \(limits.maximumBodyBytes) bytes",
            headers: [.connection: "close"]
        )
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.maximumBodyBytes {
            throw tooLarge
        }
        let body = request.body
        do {
            // The body against the clock: whichever ends first, the other is cancelled.
            return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                group.addTask {
                    let buffer = try await body.collect(upTo: limits.maximumBodyBytes)
                    return Array(buffer.readableBytesView)
                }
                group.addTask {
                    try await Task.sleep(for: limits.bodyTimeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let bytes = first else {
                    throw ServiceError(
                        status: .requestTimeout, message: "the body did not arrive within \(limits.bodyTimeout)",
                        headers: [.connection: "close"]
                    )
                }
                return bytes
            }
        } catch let error as ServiceError {
            throw error
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch {
            // The client went away or broke off its body: not a body too large.
            throw ServiceError(status: .badRequest, message: "the body could not be read to its end", headers: [.connection: "close"])
        }
    }

    static func job(_ body: [UInt8]) throws -> PlanJob {
        switch PlanJob.parse(body) {
        case .success(let job): return job
        case .failure(let error): throw ServiceError(status: .badRequest, message: error.message)
        }
    }

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status) -> Response {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(bytes.count + 1)
        buffer.writeBytes(bytes)
        buffer.writeInteger(UInt8(0x0A))
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
    }

    static func tooSlow(_ limits: Limits) -> Response {
        ServiceError(status: .serviceUnavailable, message: "the request ran over the time limit of \(limits.timeLimit)").response
    }

    /// Runs CPU-bound work on the compute threads, answering nil when it runs over the
    /// limit, counted from now: a request still waiting for a thread then never starts, and
    /// one under way is stopped through its signal within one step of its planning.
    static func withTimeLimit<Value: Sendable>(_ limit: Duration, _ work: @escaping @Sendable (StopSignal) -> Value) async -> Value? {
        let once = ResumeOnce<Value?>()
        let signal = StopSignal()
        var timer: Task<Void, Never>?
        let value = await withCheckedContinuation { continuation in
            once.set(continuation)
            ComputeThreads.shared.run {
                guard !signal.isRaised else { return }
                once.resume(work(signal))
            }
            timer = Task {
                // Cancelled when the work ends first: a timer left sleeping would hold its
                // task for the whole limit after every answer.
                do { try await Task.sleep(for: limit) } catch { return }
                signal.raise()
                once.resume(nil)
            }
        }
        timer?.cancel()
        return value
    }
}

/// The threads that compile, one per core: threads of their own, started once, rather than
/// Swift's cooperative pool or Dispatch's global queues, which on Linux share the same few
/// threads (two on a 2-core machine). A compile holds its thread for up to the time limit;
/// on shared threads two heavy requests would leave `/healthz`, the timers of the time
/// limits and every other request waiting. The operating system shares the cores among
/// all threads, so the server's own keep answering.
final class ComputeThreads: Sendable {
    static let shared = ComputeThreads(count: ProcessInfo.processInfo.activeProcessorCount)

    /// Work not started yet, first in first out, and where the next to start is.
    private struct Queue {
        var waiting: [@Sendable () -> Void] = []
        var next = 0
    }

    private let queue = Locked(Queue())
    /// One permit per piece of work in the queue: a free thread waits on it.
    private let queued = DispatchSemaphore(value: 0)

    init(count: Int) {
        for index in 0..<max(1, count) {
            let thread = Thread { [unowned self] in self.serve() }
            thread.name = "remindc-compute-\(index)"
            thread.start()
        }
    }

    /// Runs `work` on the first thread that is free, in the order of the calls.
    func run(_ work: @escaping @Sendable () -> Void) {
        queue.withLock { $0.waiting.append(work) }
        queued.signal()
    }

    private func serve() {
        while true {
            queued.wait()
            let work = queue.withLock { queue in
                let work = queue.waiting[queue.next]
                queue.next += 1
                // The list is emptied whenever it has been worked through, so it stays small.
                if queue.next == queue.waiting.count {
                    queue.waiting.removeAll(keepingCapacity: true)
                    queue.next = 0
                }
                return work
            }
            work()
        }
    }
}

/// A continuation resumed by whichever of two tasks comes first.
final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation = Locked<CheckedContinuation<Value, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Value, Never>) { self.continuation.withLock { $0 = continuation } }

    func resume(_ value: Value) {
        let continuation = self.continuation.withLock { held in
            defer { held = nil }
            return held
        }
        continuation?.resume(returning: value)
    }
}

/// The plans and calendars under way, so that a shutdown can tell whether it cut one.
///
/// Their bodies are written in parts, each awaited: an answer counts as sent only once its
/// last byte has gone to the connection, not when it was handed over whole (which a
/// shutdown could then drop from the connection's buffer, as it once did after 3.9 MB of
/// an 85 MB calendar).
final class AnswerTracker: Sendable {
    private struct Counts {
        var started = 0
        var finished = 0
        /// Answers whose client went away before their end: not cut by a shutdown.
        var abandoned = 0
        var dropped = 0
    }

    private let counts = Locked(Counts())
    /// How much of an answer is written at a time.
    static let partBytes = 1 << 18

    /// Answers started and not sent whole: cut, still being written, or dropped from a
    /// connection's buffer when it was closed. Answers their clients gave up (closed or
    /// reset the connection under them) are not counted.
    var unfinished: Int { counts.withLock { $0.started - $0.finished - $0.abandoned + $0.dropped } }

    /// A connection was closed with bytes of an answer still waiting to be sent.
    func recordDropped() { counts.withLock { $0.dropped += 1 } }

    func response(status: HTTPResponse.Status, contentType: String, bytes: [UInt8]) -> Response {
        let body = ResponseBody(contentLength: bytes.count) { [self] writer in
            counts.withLock { $0.started += 1 }
            do {
                var offset = 0
                while offset < bytes.count {
                    let end = min(offset + Self.partBytes, bytes.count)
                    try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
                    offset = end
                }
                try await writer.finish(nil)
            } catch where !Task.isCancelled {
                // The connection failed under the answer while the request was not
                // cancelled: its client closed or reset it. A shutdown cancels what it
                // cuts (and a close `FinishWritesBeforeClose` forces after its drain limit
                // is counted as dropped), so an answer given up before then is not one the
                // shutdown cut, and must not make its exit status 1.
                counts.withLock { $0.abandoned += 1 }
                throw error
            }
            counts.withLock { $0.finished += 1 }
        }
        return Response(status: status, headers: [.contentType: contentType], body: body)
    }
}

/// Holds a connection's close until what was written to it has gone to the socket.
///
/// When the service shuts down, Hummingbird closes each connection right after writing the
/// end of its answer; NIO then drops whatever the socket could not take yet, so a client
/// reading a large calendar slowly lost its last megabytes. This handler, between the HTTP
/// codec and Hummingbird's connection handler, lets the close wait for the writes under
/// way, for at most `drainLimit`; a close forced then is recorded as a cut answer.
///
/// Only the connection's event loop touches the handler: its callbacks reach the handler
/// and its context through `NIOLoopBound`, which checks that they run on that loop.
final class FinishWritesBeforeClose: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = Any
    private let drainLimit: TimeAmount
    private let answers: AnswerTracker
    private var writesUnderWay = 0
    private var waitingClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

    init(drainLimit: Duration, answers: AnswerTracker) {
        let (seconds, attoseconds) = drainLimit.components
        self.drainLimit = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        self.answers = answers
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        writesUnderWay += 1
        let written = promise ?? context.eventLoop.makePromise()
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in
            let (handler, context) = bound.value
            handler.writesUnderWay -= 1
            if handler.writesUnderWay == 0, let close = handler.waitingClose {
                handler.waitingClose = nil
                context.close(mode: close.mode, promise: close.promise)
            }
        }
        context.write(data, promise: written)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, writesUnderWay > 0, waitingClose == nil else {
            context.close(mode: mode, promise: promise)
            return
        }
        waitingClose = (mode, promise)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: drainLimit) {
            let (handler, context) = bound.value
            guard let close = handler.waitingClose else { return }
            handler.waitingClose = nil
            handler.answers.recordDropped()
            context.close(mode: close.mode, promise: close.promise)
        }
    }
}

/// The service's open connections, and which have no request under way: at the cap, the
/// connection idle longest is closed to make room, so that idle and half-sent connections
/// (a client that sends a header byte every few seconds, or nothing) cannot hold the cap,
/// and `/healthz` with it, until their idle timeout.
///
/// Hummingbird's accept limit (`availableConnectionsDelegate`) takes one connection past the
/// cap and keeps the next in the listen queue. Room is made when a connection past the cap
/// is set up here (the accept limit hears of one before its pipeline exists) and, while the
/// cap stays passed, every `Self.recheck`. Only a connection idle for `Self.youngest` or longer is
/// closed: a client that has just connected is sending its request. One request under way
/// keeps its connection open.
final class ConnectionRegistry: Sendable {
    /// How long a connection must have been idle to be closed for room.
    static let youngest = TimeAmount.milliseconds(250)
    /// How often room is looked for while the cap is reached and none was found.
    static let recheck = TimeAmount.milliseconds(100)

    private struct Entry {
        let channel: any Channel
        /// When it fell idle; nil while a request is under way, or once chosen to close.
        var idleSince: NIODeadline?
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        /// Whether a look for room is scheduled.
        var recheckScheduled = false
    }

    private let maximum: Int
    private let state = Locked(State())

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// A connection was set up: idle until its first request's head. Past the cap, the
    /// connection idle longest is closed to make room.
    func opened(_ channel: any Channel) {
        state.withLock { $0.open[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: .now()) }
        makeRoom(on: channel.eventLoop)
    }

    func becameIdle(_ channel: any Channel) {
        state.withLock { $0.open[ObjectIdentifier(channel)]?.idleSince = .now() }
    }

    func becameBusy(_ channel: any Channel) {
        state.withLock { $0.open[ObjectIdentifier(channel)]?.idleSince = nil }
    }

    func closed(_ channel: any Channel) {
        state.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Past the cap, closes the connection idle longest, when one has been idle long enough,
    /// and looks again soon, for as long as the cap stays passed.
    private func makeRoom(on loop: any EventLoop) {
        let (chosen, scheduleRecheck) = state.withLock { state -> ((any Channel)?, Bool) in
            guard state.open.count > maximum else { return (nil, false) }
            let latest = NIODeadline.now() - Self.youngest
            var longest: (key: ObjectIdentifier, since: NIODeadline)?
            for (key, entry) in state.open {
                if let since = entry.idleSince, since <= latest, since < longest?.since ?? .distantFuture { longest = (key, since) }
            }
            var chosen: (any Channel)?
            if let longest {
                state.open[longest.key]?.idleSince = nil
                chosen = state.open[longest.key]?.channel
            }
            // Several connections may be accepted at once, past the cap: room is made for
            // each in turn.
            guard !state.recheckScheduled else { return (chosen, false) }
            state.recheckScheduled = true
            return (chosen, true)
        }
        chosen?.close(promise: nil)
        if scheduleRecheck {
            loop.scheduleTask(in: Self.recheck) { [self] in
                state.withLock { $0.recheckScheduled = false }
                makeRoom(on: loop)
            }
        }
    }
}

/// Tells the registry of a connection's life: set up, a request under way from its head to
/// the end of its answer (requests sent ahead are counted), closed.
final class ConnectionActivity: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP1Channel.Value.InboundPart
    typealias InboundOut = HTTP1Channel.Value.InboundPart
    typealias OutboundIn = HTTP1Channel.Value.OutboundPart
    typealias OutboundOut = HTTP1Channel.Value.OutboundPart
    private let registry: ConnectionRegistry
    /// Requests whose head came and whose answer has not ended.
    private var underWay = 0

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        registry.opened(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        registry.closed(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.closed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            underWay += 1
            registry.becameBusy(context.channel)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        underWay = max(underWay - 1, 0)
        // Idle once the answer's end has gone out, not while a slow client still reads it.
        let written = promise ?? context.eventLoop.makePromise()
        let bound = NIOLoopBound((handler: self, channel: context.channel), eventLoop: context.eventLoop)
        written.futureResult.whenSuccess {
            let (handler, channel) = bound.value
            if handler.underWay == 0 { handler.registry.becameIdle(channel) }
        }
        context.write(data, promise: written)
    }
}

extension NIOAsyncChannel {
    /// The parts a connection's channel reads and writes (HTTP request and answer parts for
    /// `HTTP1Channel.Value`), named here because the HTTP part types' own module is not one
    /// the service depends on directly.
    typealias InboundPart = Inbound
    typealias OutboundPart = Outbound
}

/// The service stopped before every answer under way was sent whole.
public struct AnswersCut: Error, CustomStringConvertible {
    /// How many answers were cut.
    public let count: Int
    /// The grace period they were given.
    public let gracePeriod: Duration

    public var description: String {
        "\(count) \(count == 1 ? "answer was" : "answers were") cut: the shutdown's grace period of \(gracePeriod) ended before \(count == 1 ? "it was" : "they were") sent whole"
    }
}

/// Answers 405, with `Allow`, a request for a known path with a method it does not take:
/// any method, TRACE, OPTIONS, HEAD or one HTTP does not name alike (the routes of each
/// other method answered only five).
struct MethodCheck<Context: RequestContext>: RouterMiddleware {
    /// The methods each path takes.
    let methods: [String: [HTTPRequest.Method]]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Routes match with empty segments skipped (`/v1/plan/`, `//healthz`), so the path does too.
        let path = "/" + request.uri.path.split(separator: "/").joined(separator: "/")
        guard let allowed = methods[path], !allowed.contains(request.method) else { return try await next(request, context) }
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        return ServiceError(status: .methodNotAllowed, message: "\(path) takes \(names) only", headers: [.allow: names]).response
    }
}

/// An answer other than 200, as JSON with one diagnostic.
struct ServiceError: Error {
    let status: HTTPResponse.Status
    let message: String
    /// Headers the answer carries besides its type (`Allow` for a 405).
    var headers: HTTPFields = [:]

    var response: Response {
        let diagnostic = Diagnostic(.error, at: .keyPath("request"), .serviceAnswer(status: status.code, message))
        var response = RemindcServer.json(PlanJob.failure([diagnostic]), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

/// Requests counted by endpoint and status, and their durations, for `GET /metrics`.
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// One endpoint's metrics, registered once: the registry builds and checks a metric's
    /// name, help text and labels on every lookup, about 21 000 instructions a request.
    final class Endpoint: Sendable {
        private let name: String
        private let registry: PrometheusCollectorRegistry
        private let durations: DurationHistogram
        /// The counter of each status answered so far.
        private let counters = Locked<[Int: Counter]>([:])

        init(_ name: String, registry: PrometheusCollectorRegistry) {
            self.name = name
            self.registry = registry
            durations = registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(namespace: "remindc", metricName: "request_duration", unitName: "seconds", helpText: "Time to answer a request"),
                labels: [("endpoint", name)],
                buckets: [.milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2), .seconds(10)]
            )
        }

        /// The counter of answers with `status`, registered the first time one is counted.
        func counter(for status: Int) -> Counter {
            if let counter = counters.withLock({ $0[status] }) { return counter }
            let counter = registry.makeCounter(
                descriptor: MetricNameDescriptor(namespace: "remindc", metricName: "requests", unitName: "total", helpText: "Requests by endpoint and status"),
                labels: [("endpoint", name), ("status", String(status))]
            )
            // The registry hands out one counter per labels, so two requests registering
            // the same status at once keep the same one.
            counters.withLock { $0[status] = counter }
            return counter
        }

        /// Answers with `handle`, counting the answer's status and timing it.
        func measure(_ handle: () async throws -> Response) async -> Response {
            let start = ContinuousClock.now
            let response: Response
            do {
                response = try await handle()
            } catch let error as ServiceError {
                response = error.response
            } catch {
                response = ServiceError(status: .internalServerError, message: "\(error)").response
            }
            durations.record(ContinuousClock.now - start)
            counter(for: Int(response.status.code)).increment()
            return response
        }
    }

    /// The metrics of the endpoint `name`.
    func endpoint(_ name: String) -> Endpoint { Endpoint(name, registry: registry) }
}
#endif
