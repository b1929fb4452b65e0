/// A photo habit is done only by a photo: a person's "done" by hand on one is refused, with the way
/// to prove it. Skip and undo stay; a photo proof and an import record their entries elsewhere.
public enum PhotoProofRule {
    /// Refuses `status` `.done` marked by hand on a photo habit (`proof_required`).
    public static func check(_ status: EntryStatus, on habit: Habit) throws {
        guard status == .done, habit.kind == .photo else { return }
        throw MorningProofError(
            .refused, code: "proof_required",
            "\"\(habit.name)\" is a photo habit: it is done only by a photo of the day\(hint: .proveWithPhoto(habit: habit.name, id: habit.id))"
        )
    }
}
