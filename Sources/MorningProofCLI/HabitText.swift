import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract

extension Habit {
    /// The name as text output shows it: any control character as a visible escape.
    var shownName: String { UserText.visible(name) }
}
