import Localization
import Notifications

/// What `doctor` says of the bus and the notification server, one fact per line.
///
/// The facts are the diagnosis's (Notifications); the words are the catalogs'.
/// What the server says of itself, its capabilities and the presentation's
/// technical description are values, shown as they are.
enum DoctorText {
  static func messages(_ diagnosis: NotificationDiagnosis) -> [CommandMessage] {
    var messages = [diagnosis.busAddress.map { CommandMessage(.bus, ["address": $0]) } ?? CommandMessage(.busNone)]
    if let information = diagnosis.information {
      var values = [
        "name": information.name, "version": information.version, "vendor": information.vendor,
        "spec": information.specVersion,
      ]
      if let owner = diagnosis.serverOwner {
        values["owner"] = owner.rawValue
        messages.append(CommandMessage(.serverOwned, values))
      } else {
        messages.append(CommandMessage(.server, values))
      }
    } else {
      messages.append(CommandMessage(diagnosis.activatable ? .serverActivatable : .serverNone))
    }
    if let capabilities = diagnosis.capabilities {
      messages.append(
        capabilities.isEmpty
          ? CommandMessage(.capabilitiesNone)
          : CommandMessage(.capabilities, ["capabilities": capabilities.map(\.rawValue).joined(separator: ", ")]))
    }
    if let presentation = diagnosis.presentation {
      messages.append(CommandMessage(.presentation, ["presentation": presentation.description]))
      let clicks: CommandKey =
        switch presentation.style {
        case .actions: .clicksActions
        case .bodyHyperlink: .clicksLink
        case .closeOnly: .clicksCloseOnly
        }
      messages.append(CommandMessage(clicks))
    }
    if let problem = diagnosis.problem { messages.append(CommandMessage(.problem, ["problem": problem.message])) }
    return messages
  }
}
