import AudioBackend
import AudioCore
import Routing

extension RouteService {
    /// Carries out one output, to the end, before the next: a stream is opened (or closed)
    /// before anything else the engine decided after it happens. Feedback (stream opened,
    /// first buffer, failures) goes back through the command queue, after what is queued.
    func carryOut(_ output: RoutingOutput) async {
        report(output)
        switch output {
        case .perform(let action):
            do {
                try await backend.perform(action)
            } catch {
                commands.yield(.input(.actionFailed(action, error as? StreamSessionError ?? .internalError("\(error)"))))
            }
        case .openStream(let id, let endpoint, let format):
            let pcm = PCMFormat(sampleRate: format.sampleRate, channels: format.channels)
            switch endpoint.direction {
            case .source: await openCapture(id, endpoint, pcm)
            case .sink: await openPlayback(id, endpoint, pcm)
            }
        case .closeStream(let id, let endpoint):
            await close(id, endpoint.direction)
            commands.yield(.input(.streamClosed(id, endpoint.direction)))
        case .sessionReady(let id, let route):
            let frames = captures[id]?.frames
            waiters.removeValue(forKey: id)?.resume(returning: ReadySession(id: id, route: route, frames: frames))
        case .sessionFailed(let id, let error):
            waiters.removeValue(forKey: id)?.resume(throwing: error)
            captures[id]?.sink.finish(throwing: error)
        case .scheduleTick(let at):
            tickTask?.cancel()
            tickTask = Task { [clock, commands] in
                do { try await clock.sleep(until: at) } catch { return }
                commands.yield(.input(.tick(now: at)))
            }
        case .sessionStateChanged, .routeChanged, .activeDeviceChanged:
            break
        }
    }

    private func openCapture(_ id: SessionID, _ endpoint: AudioEndpoint, _ format: PCMFormat) async {
        let stream: AsyncThrowingStream<AudioFrame, any Error>
        do {
            stream = try await backend.openCapture(source: endpoint.name, format: format)
        } catch {
            commands.yield(.input(.streamFailed(id, error as? StreamSessionError ?? .audioStreamingError("\(error)"))))
            return
        }
        commands.yield(.input(.streamOpened(id, .source)))
        let (frames, sink) = AsyncThrowingStream.makeStream(of: AudioFrame.self, throwing: (any Error).self)
        let reader = Task { [commands] in
            var first = true
            do {
                for try await frame in stream {
                    // Frames flow to the owner from the first one: nothing said at ready is lost.
                    sink.yield(frame)
                    if first {
                        first = false
                        commands.yield(.input(.firstBufferDelivered(id, .source)))
                    }
                }
                guard !Task.isCancelled else { return }
                commands.yield(.input(.streamFailed(id, .audioStreamingError("the capture from \(endpoint.name) ended"))))
            } catch {
                guard !Task.isCancelled else { return }
                // The engine decides which error ends the session (a fold that follows wins).
                commands.yield(.input(.streamFailed(id, error as? StreamSessionError ?? .audioStreamingError("\(error)"))))
            }
        }
        captures[id] = Capture(reader: reader, frames: frames, sink: sink)
    }

    private func openPlayback(_ id: SessionID, _ endpoint: AudioEndpoint, _ format: PCMFormat) async {
        do {
            // A conversation (mic and speaker together) holds little at the server; media more.
            let duplex = engine.session(id)?.request.usage == .captureAndPlayback
            let stream = try await backend.openPlayback(
                sink: endpoint.name, format: format, latency: duplex ? .milliseconds(200) : .seconds(1))
            playbacks[id] = stream
            commands.yield(.input(.streamOpened(id, .sink)))
            commands.yield(.input(.firstBufferDelivered(id, .sink)))  // a playback stream is ready once it accepts audio
        } catch {
            commands.yield(.input(.streamFailed(id, error as? StreamSessionError ?? .audioStreamingError("\(error)"))))
        }
    }

    /// Closes the session's stream of this direction and waits until the backend let go of it.
    private func close(_ id: SessionID, _ direction: EndpointDirection) async {
        switch direction {
        case .source:
            guard let capture = captures.removeValue(forKey: id) else { return }
            capture.reader.cancel()
            await capture.reader.value
            capture.sink.finish()
        case .sink:
            guard let playback = playbacks.removeValue(forKey: id) else { return }
            await playback.close()
        }
    }
}
