import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofService
import MorningProofStoreContract

/// `morningproof habit ...`: add, list, show, edit, archive and remove habits.
struct HabitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "habit",
        abstract: "Add, list, show, edit, archive, order and remove habits.",
        discussion: """
            A habit may be named by a unique prefix, in any case: "done make" means "Make bed" \
            when no other habit starts with "make".
            """,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Archive.self, Move.self, Remove.self, Reference.self],
        defaultSubcommand: List.self
    )
}

/// The schedule and details a habit can be given on `habit add` and `habit edit`.
struct HabitDetailOptions: ParsableArguments {
    @Option(help: "What proves it: manual, photo, metric or checkin.")
    var kind: HabitKind?

    @Option(help: "Due every N days: a done day covers itself and the next N-1 days.")
    var every: Int?

    @Option(help: "Due K times in each --per week|month, or in any --in N days.")
    var times: Int?

    @Option(help: "With --times: week (calendar week from config week-start) or month.")
    var per: String?

    @Option(name: .customLong("in"), help: "With --times: a rolling window of N days.")
    var within: Int?

    @Option(name: .customLong("remind-at"), help: "Remind at this local time, HH:MM.")
    var remindAt: String?

    @Flag(inversion: .prefixedNo, help: "Must be done (or skipped) today before the gate opens.")
    var required: Bool?

    @Option(help: "A note shown with the habit.")
    var note: String?

    @Option(help: "The health metric whose daily value completes the day (implies --kind metric).")
    var metric: String?

    @Option(name: .customLong("at-least"), help: "Done once the metric reaches this: 8000, 7h, 30min, 5km, 500kcal.")
    var atLeast: String?

    @Option(
        name: .customLong("at-most"), help: "A limit: done, once the day is over, when the metric stayed within it.")
    var atMost: String?

    @Option(help: "With --metric workouts or workoutMinutes: only this activity counts (running).")
    var activity: String?

    /// Refuses a note with control characters or over the length limit.
    /// The options as the library takes them.
    var details: HabitDetails {
        HabitDetails(
            kind: kind, every: every, times: times, per: per, within: within, remindAt: remindAt,
            required: required, note: note, metric: metric, atLeast: atLeast, atMost: atMost, activity: activity)
    }
}

extension HabitKind: ExpressibleByArgument {}

extension HabitCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a habit (daily unless a schedule is given).",
            discussion: """
                Schedules: daily (default); --every N (every N days); --times K --per week|month \
                (K done days in each calendar week or month); --times K --in N (K done days in any N days).
                Examples:
                  morningproof habit add "Make bed" --kind photo --required
                  morningproof habit add Run --times 3 --per week --remind-at 07:00
                Metric habits complete themselves when `morningproof check` reads the health files:
                  morningproof habit add Walk --metric steps --at-least 8000
                  morningproof habit add Sleep --metric sleep --at-least 7h30m
                  morningproof habit add Run --metric workouts --at-least 1 --activity running
                  morningproof habit add "Rest day" --metric workoutMinutes --at-most 20min
                Metrics: steps, sleep (min), workouts, workoutMinutes, activeEnergy (kcal), distance (km), \
                exercise (min), mindful (min). An --at-most goal is judged once its day is over.
                """)

        @Argument(help: "The habit's name (unique, case-insensitively).")
        var name: String

        @OptionGroup var details: HabitDetailOptions

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "The habit's first day, in the past, so earlier days can be recorded by hand: YYYY-MM-DD or -N "
                    + "(not for photo habits, proved by a photo each day). Default: today.", valueName: "day"))
        var since: String?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try validating {
                try details.details.validateNew(named: name)
            }
        }

        func run() async throws {
            let session = try await global.session()
            let habit = try await session.habits.add(named: name, details.details, since: since, now: session.now)
            if session.json {
                try Console.json(HabitJSON(habit))
            } else {
                Console.out(
                    "Added \"\(habit.shownName)\" (\(habit.kind.rawValue)\(habit.goal.map { ", \($0.summary)" } ?? ""), \(habit.schedule.summary))\(since == nil ? "" : ", since \(habit.createdDay)")."
                )
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the habits.")

        @Flag(help: "Include archived habits.")
        var all = false

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let habits = try await session.database.habits(includeArchived: all)
            if session.json { return try Console.json(habits.map { HabitJSON($0) }) }
            if habits.isEmpty { return Console.out("No habits yet. Add one: morningproof habit add \"Make bed\"") }
            // Names padded to one column by the width a terminal gives them (wide characters take two).
            let column = min(40, habits.map { UserText.displayWidth($0.shownName) }.max() ?? 0)
            for habit in habits {
                let name = UserText.padded(UserText.truncated(habit.shownName, toWidth: column), toWidth: column)
                var line = "\(name)  \(habit.kind.rawValue), \(habit.schedule.summary)"
                if let goal = habit.goal { line += ", goal \(goal.summary)" }
                if let remindAt = habit.remindAt { line += ", reminder \(formatClockTime(remindAt))" }
                if habit.required { line += ", required" }
                if habit.archived { line += ", archived" }
                Console.out(line)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one habit with its streaks.")

        @Argument(help: "The habit (a unique prefix will do).")
        var name: String

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let progress = try await session.habits.show(named: name, now: session.now)
            let habit = progress.habit
            if session.json { return try Console.json(HabitJSON(habit, progress: progress)) }
            Console.out(habit.shownName)
            Console.out(
                "  kind: \(habit.kind.rawValue); schedule: \(habit.schedule.summary); since \(habit.createdDay)")
            if let goal = habit.goal { Console.out("  goal: \(goal.summary)") }
            if let remindAt = habit.remindAt { Console.out("  reminder: \(formatClockTime(remindAt))") }
            if habit.required { Console.out("  required for the gate") }
            if let note = habit.note { Console.out("  note: \(UserText.visible(note))") }
            if habit.archived { Console.out("  archived") }
            Console.out(
                "  today: \(progress.state); current streak \(progress.timeline.currentStreak); "
                    + "longest \(progress.timeline.longestStreak.length); score \(Int((progress.timeline.score * 100).rounded()))%"
            )
            if let period = progress.timeline.period {
                Console.out("  \(period.words) (\(period.start) to \(period.end))")
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change a habit's schedule, details or name.")

        @Argument(help: "The habit (a unique prefix will do).")
        var name: String

        @Option(help: "A new name.")
        var rename: String?

        @OptionGroup var details: HabitDetailOptions

        @Flag(name: .customLong("no-remind"), help: "Remove the reminder.")
        var noRemind = false

        @Flag(name: .customLong("no-note"), help: "Remove the note.")
        var noNote = false

        @Flag(
            name: .customLong("no-goal"),
            help: "Remove the health-data goal (a metric habit then needs another --kind, such as manual).")
        var noGoal = false

        @Flag(name: .customLong("no-activity"), help: "Count every workout again, not one activity.")
        var noActivity = false

        @OptionGroup var global: GlobalOptions

        /// The options, with what the `--no-` flags clear.
        var edit: HabitDetails {
            var edit = details.details
            let flags: [(Bool, ClearableDetail)] = [
                (noRemind, .remindAt), (noNote, .note), (noGoal, .goal), (noActivity, .activity),
            ]
            edit.clearing = Set(flags.filter(\.0).map(\.1))
            return edit
        }

        func validate() throws {
            try validating {
                if let rename {
                    try UserText.validate(rename, field: .rename, maxLength: UserText.habitNameMaxLength)
                }
                try edit.validate()
            }
        }

        func run() async throws {
            let session = try await global.session()
            let before = try await session.habits.database.findHabit(named: name)
            let edited = try await session.habits.edit(before, rename: rename, edit, now: session.now)
            let habit = edited.habit
            if session.json { return try Console.json(HabitJSON(habit)) }
            Console.out(
                "Updated \"\(habit.shownName)\" (\(habit.kind.rawValue)\(habit.goal.map { ", \($0.summary)" } ?? ""), \(habit.schedule.summary))."
            )
            // Days done before it became a photo habit stay as they were (issue 39); photos prove the rest.
            if let notice = EditedHabit.notice(reopened: edited.reopened) {
                Console.out(
                    "\(notice.prefix(1).uppercased())\(notice.dropFirst()): morningproof verify PHOTO --habit \"\(habit.name)\""
                )
            }
            if before.kind != .photo, habit.kind == .photo {
                let kept = try await session.habits.daysDoneWithoutPhoto(habit)
                guard kept > 0 else { return }
                Console.out(
                    "Its \(kept) \(kept == 1 ? "day" : "days") done before the change stay as they were; from now on only a "
                        + "photo proves a day: morningproof verify PHOTO --habit \"\(habit.name)\"")
            }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive",
            abstract: "Archive a habit: hidden from status, its history kept. --undo brings it back.")

        @Argument(help: "The habit (a unique prefix will do).")
        var name: String

        @Flag(help: "Bring an archived habit back.")
        var undo = false

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let habit = try await session.habits.archive(named: name, archived: !undo, now: session.now)
            if session.json { return try Console.json(HabitJSON(habit)) }
            Console.out(
                undo
                    ? "\"\(habit.shownName)\" is active again."
                    : "Archived \"\(habit.shownName)\"; its history is kept.")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Delete a habit and all its entries (needs --yes).")

        @Argument(help: "The habit (a unique prefix will do).")
        var name: String

        @Flag(help: "Really delete it.")
        var yes = false

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let (habit, removed) = try await session.habits.remove(named: name, confirmed: yes)
            if session.json { return try Console.json(["removed": habit.name, "entries": "\(removed)"]) }
            Console.out("Removed \"\(habit.shownName)\" and its \(removed) \(removed == 1 ? "entry" : "entries").")
        }
    }
}
