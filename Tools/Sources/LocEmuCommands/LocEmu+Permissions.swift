import ArgumentParser
import Foundation
import Geo
import LocationModel
import PermissionHandling
import Scenarios

extension LocEmu {
  struct Permissions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "permissions",
      abstract: "Run the permission system through a scenario and print what happens, as JSON lines.",
      discussion: """
        Runs a PermissionEmulator ("the OS"), a LocationService over a location \
        source and a LocationPermissionHandler on one clock, through a timeline \
        of events, and prints one JSON line per thing that happens: t (seconds), \
        event, and the state it produced (status, services, accuracy, app).

        Events (--at TIME=EVENT, the scenario file's "events", or one per line \
        on standard input with --control stdin): permission=STATE, \
        services=on|off, accuracy=full|reduced, background, foreground, \
        authorize (the app asks: a prompt only from notDetermined, answered per \
        --prompt-answer after --prompt-delay), authorizeAlways (the app asks for \
        Always: from notDetermined a prompt whose Allow While Using grants a \
        provisional Always, from when in use the upgrade prompt, once per app), \
        request (requestLocation: never \
        prompts), locate (the handler's requestLocationWithPermissions), \
        fix=lost|back, answer=ANSWER (the user answers the prompt now).

        Also printed: prompt, promptAnswered, promptDismissed, allowOnceExpired; \
        statusChange (what the handler's observer is told); fix (each fix the \
        continuous locations() stream delivered); authorizeResult, \
        requestResult, locateResult (result: a fix record or null).

        The source is a fixed point (default: Warsaw, 52.2297,21.0122, 5 m), a \
        trace (--trace) or a live gpsd (--gpsd). --virtual-time runs the whole \
        scenario instantly on a virtual clock and prints the same transcript on \
        every run. The run ends at --duration, or 11 s plus the prompt delay \
        after the last event.

        Example: locemu permissions --virtual-time --prompt-answer allowOnce \
        --at 1=authorize --at 4=request --at 6=background --duration 7

        Exit status: 0 when the scenario ran to its end; 1 when a file (scenario, \
        trace) cannot be read; 64 for bad options (an event after --duration too).
        """
    )

    @OptionGroup var options: ScenarioOptions
    @OptionGroup var realismOptions: RealismOptions
    @OptionGroup var traceOptions: TraceOptions
    @OptionGroup var timeOptions: TimeBaseOptions
    var sources: ScenarioOptions.Sources { .init(realism: realismOptions, trace: traceOptions, time: timeOptions) }

    func validate() throws { try options.validate(sources) }

    func run() async throws {
      let output = Locked(OutputBuffer())
      try await options.run(command: "permissions", sources) { line in
        output.withLock {
          $0.writeLine(line.json)
          if !options.virtualTime { $0.flush() }
        }
      }
      output.withLock { $0.flush() }
    }
  }
}
