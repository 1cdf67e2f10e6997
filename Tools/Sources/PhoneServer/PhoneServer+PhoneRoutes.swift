import Emulator
import Foundation
import GNSSReceiver
import Geo
import Hummingbird
import LocationEmulatorClient
import Logging
import NIOCore
import PermissionHandling
import Scenarios
import MapRendering
import Basemap
import Traces
import ServiceLifecycle
import UnixSignals
import NIOPosix
import LocationModel

#if canImport(Glibc)
  import Glibc
#endif

// The phones: listed, made, read and deleted; their location, route, trace and playback,
// receiver, permission settings, prompt, the app's calls and the event stream.
extension PhoneServer {
  func phoneRoutes(_ body: JSONBody) -> RouteCollection<BasicRequestContext> {
    let routes = RouteCollection(context: BasicRequestContext.self)
    let hub = self.hub, limits = self.limits, traces = self.traces
    routes.get("phones") { _, _ in
      Self.json(Wire.PhoneList(phones: hub.phones.map(\.state)))
    }
    routes.post("phones") { request, _ in
      try await Self.guarded {
        let new = try await body(request, as: Wire.NewPhone.self)
        // Everything is checked before the phone is made: a refused request makes nothing.
        let settings = try Self.settings(new)
        let location = try new.location.map(Self.fix)
        var run: TraceRun?
        if let trace = new.trace { run = try await Self.traceRun(trace, traces) }
        if location != nil && run != nil { throw APIError.bad("give location or trace, not both") }
        let realism = try new.realism.flatMap { wire in try Self.receiver(wire).map { ($0, wire) } }
        guard let phone = await hub.create(settings) else {
          throw APIError.busy("this server holds its limit of \(limits.maxPhones) phones (--max-phones): delete one first")
        }
        if let realism { phone.setRealism(realism) }
        if var location {
          location.timestamp = phone.phone.date
          if phone.isRealistic { phone.stand(at: location) } else { await phone.phone.send(location) }
        }
        if let run { phone.start(run.trace, options: run.options(from: phone.phone.date)) }
        try await Self.settle(hub.clock)
        return Self.json(phone.state, status: .created)
      }
    }
    routes.get("phones/:id") { _, context in
      try await Self.guarded { Self.json(try Self.phone(hub, context).state) }
    }
    routes.delete("phones/:id") { _, context in
      try await Self.guarded {
        let id = try context.parameters.require("id")
        guard await hub.delete(id) else { throw APIError.notFound("no phone \(id)") }
        return Response(status: .noContent)
      }
    }
    routes.post("phones/:id/location") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        var fix = try Self.fix(try await body(request, as: Wire.Location.self))
        fix.timestamp = phone.phone.date
        phone.stopPlaying()
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        if phone.isRealistic {
          // Through the receiver: it stands there, one fix a second.
          phone.stand(at: fix)
          try await Self.settle(phone.phone.clock)
        } else {
          await phone.phone.send(fix)
        }
        return Self.json(phone.state)
      }
    }
    routes.delete("phones/:id/location") { _, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        phone.stopPlaying()
        await phone.phone.setFixAvailable(false)
        return Self.json(phone.state)
      }
    }
    routes.post("phones/:id/route") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let route = try await body(request, as: Wire.Route.self)
        guard !route.waypoints.isEmpty, route.waypoints.count <= 10_000 else {
          throw APIError.bad("give \"waypoints\": 1 to 10000 objects with lat and lon")
        }
        let waypoints = try route.waypoints.map { try Self.fix($0).coordinate! }
        let speed = try Self.finite(route.speed, "speed") ?? 1.4
        guard speed > 0, speed <= 1000 else { throw APIError.bad("speed must be above 0 and at most 1000 m/s") }
        let interval = try Self.finite(route.interval, "interval") ?? 1
        guard interval >= 0.01, interval <= 3600 else { throw APIError.bad("interval must be 0.01 to 3600 seconds") }
        let walk = RouteWalk(waypoints: waypoints, speed: speed, interval: .milliseconds(Int64((interval * 1000).rounded())))
        guard let fixes = walk.fixes() else {
          throw APIError.bad("the route would take over \(RouteWalk.maxFixes) fixes: raise speed or interval")
        }
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        phone.start(walk, fixes: fixes)
        try await Self.settle(phone.phone.clock)
        return Self.json(phone.state)
      }
    }
    routes.post("phones/:id/trace") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let run: TraceRun
        if Self.isJSON(request) {
          run = try await Self.traceRun(try await body(request, as: Wire.TraceRun.self), traces)
        } else {
          // The body is the trace; how to play it is in the query.
          run = try await Self.traceRun(uploaded: request, body.reader, traces)
        }
        if phone.phone.isFixLost { await phone.phone.setFixAvailable(true) }
        phone.start(run.trace, options: run.options(from: phone.phone.date))
        try await Self.settle(phone.phone.clock)
        return Self.json(phone.state)
      }
    }
    routes.post("phones/:id/playback") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let playback = try await body(request, as: Wire.Playback.self)
        guard phone.setPaused(playback.paused) else { throw APIError.conflict("nothing is playing") }
        return Self.json(phone.state)
      }
    }
    routes.post("phones/:id/seek") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let seek = try await body(request, as: Wire.Seek.self)
        guard (seek.fix == nil) != (seek.seconds == nil) else { throw APIError.bad("give fix (an index from 0) or seconds, one of them") }
        if let fix = seek.fix, fix < 0 { throw APIError.bad("fix must be 0 or more") }
        if let seconds = seek.seconds, !(seconds >= 0 && seconds <= 1e9) { throw APIError.bad("seconds must be 0 to 1000000000") }
        guard phone.seek(fix: seek.fix, seconds: seek.seconds) != nil else {
          throw APIError.conflict("nothing seekable is playing: a trace or a route can be sought, a source cannot")
        }
        try await Self.settle(phone.phone.clock)
        return Self.json(phone.state)
      }
    }
    routes.post("phones/:id/realism") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let realism = try await body(request, as: Wire.Realism.self)
        phone.setRealism(try Self.receiver(realism).map { ($0, realism) })
        return Self.json(phone.state)
      }
    }
    routes.post("phones/:id/privacy") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let privacy = try await body(request, as: Wire.Privacy.self)
        let status: LocationPermissionStatus =
          switch privacy.action {
          case .grant: privacy.always == true ? .authorizedAlways : .authorizedWhenInUse
          case .revoke: .denied
          case .reset: .notDetermined
          case .restrict: .restricted
          }
        return try await Self.apply(.permission(status), to: phone)
      }
    }
    routes.post("phones/:id/services") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        return try await Self.apply(.services(try await body(request, as: Wire.Services.self).enabled), to: phone)
      }
    }
    routes.post("phones/:id/accuracy") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        return try await Self.apply(.accuracy(try await body(request, as: Wire.Accuracy.self).accuracy), to: phone)
      }
    }
    routes.post("phones/:id/app") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let state = try await body(request, as: Wire.App.self).state
        return try await Self.apply(state == .background ? .background : .foreground, to: phone)
      }
    }
    routes.post("phones/:id/prompt") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let prompt = try await body(request, as: Wire.Prompt.self)
        var delay: Duration?
        if let seconds = try Self.finite(prompt.delay, "delay") {
          guard seconds >= 0, seconds <= 86_400 else { throw APIError.bad("delay must be 0 to 86400 seconds") }
          delay = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        phone.phone.setPromptAnswer(prompt.answer, delay: delay)
        return Self.json(phone.state)
      }
    }
    routes.post("phones/:id/calls/:call") { _, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let call = try context.parameters.require("call")
        let event: ScenarioEvent
        switch call {
        case "authorize": event = .authorize
        case "authorizeAlways": event = .authorizeAlways
        case "request": event = .request
        case "locate": event = .locate
        default: throw APIError.notFound("no call \(call): authorize, authorizeAlways, request or locate")
        }
        phone.runner.apply(event)
        try await Self.settle(hub.clock)
        return Self.json(phone.state, status: .accepted)
      }
    }
    routes.post("phones/:id/events") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let text = try await body(request, as: Wire.Event.self).event
        let event: ScenarioEvent
        do {
          event = try ScenarioEvent(parsing: text)
        } catch {
          throw APIError.bad("\(error)")
        }
        guard !event.isMapEvent || phone.app != nil else {
          throw APIError.bad("'\(text)' is a map event: this phone has no map (make one with \"mapFeatures\": true)")
        }
        return try await Self.apply(event, to: phone)
      }
    }
    routes.get("phones/:id/events") { request, context in
      try await Self.guarded {
        let phone = try Self.phone(hub, context)
        let history = request.uri.queryParameters.get("history", as: Int.self) ?? 0
        guard
          let subscription = phone.events(
            history: max(0, min(history, ServedPhone.historyLimit)), maxClients: limits.maxEventClientsPerPhone)
        else {
          throw APIError.busy("phone \(phone.id) has its limit of \(limits.maxEventClientsPerPhone) event-stream clients")
        }
        return Response(
          status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
          body: ResponseBody { writer in
            // A write that fails (the client went away) ends the subscription at once.
            defer { subscription.cancel() }
            for await line in subscription.lines {
              try await writer.write(ByteBuffer(string: line == ServedPhone.keepAliveLine ? ": keep-alive\n\n" : "data: \(line)\n\n"))
            }
            try await writer.finish(nil)
          })
      }
    }
    return routes
  }
}
