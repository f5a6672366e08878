import Posix
import Spawn

/// A private `dbus-daemon` of our own, on a socket in a new temporary directory.
///
/// Used by the tests and by `shieldbridge demo`: a bus nobody else uses, with
/// its own configuration (session-bus policy, generous limits), that answers
/// before `init` returns and is gone (process and directory) after ``stop()``
/// or when the value is released.
public final class BusDaemon: Sendable {
  /// The address to connect to, as the daemon printed it.
  public let address: String
  /// The temporary directory with the configuration and the socket.
  public let directory: String
  private let process: Subprocess

  /// Starts the daemon and waits until it answers a connection.
  ///
  /// - Parameters:
  ///   - serviceDirectories: Folders of `.service` files for activation on demand.
  ///   - timeout: How long to wait for the daemon to answer.
  /// - Throws: `NoServer` when `dbus-daemon` is missing or does not answer in time.
  public init(serviceDirectories: [String] = [], timeout: Duration = .seconds(10)) throws(DBusError) {
    let base = Environment.nonEmptyValue("TMPDIR") ?? "/tmp"
    let directory: String
    do {
      directory = try FileSystem.makeTemporaryDirectory(prefix: base + "/shieldbridge-bus.")
    } catch {
      throw DBusError(.noServer, "could not make a directory for the bus in \(base): \(error)")
    }
    let configuration = BusDaemon.configuration(socket: directory + "/bus", serviceDirectories: serviceDirectories)
    guard writeFile(directory + "/bus.conf", configuration) else {
      removeDirectory(directory)
      throw DBusError(.noServer, "could not write the bus configuration in \(directory)")
    }
    let process: Subprocess
    do {
      process = try Subprocess(
        ["dbus-daemon", "--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile", "--print-address=1"],
        standardInput: .null, standardOutput: .pipe, standardError: .null)
    } catch {
      removeDirectory(directory)
      throw DBusError(.noServer, "could not start dbus-daemon (install the dbus-daemon package): \(error)")
    }
    guard let output = process.standardOutput, let address = output.readLine(timeout: timeout) else {
      process.terminate()
      removeDirectory(directory)
      throw DBusError(.noServer, "dbus-daemon did not print its address within \(timeout.formatted)")
    }
    self.address = address
    self.directory = directory
    self.process = process
    // It printed its address once it listens; a first connection proves it answers.
    do {
      let probe = try Connection(.address(address))
      probe.close()
    } catch {
      stop()
      throw DBusError(.noServer, "the private dbus-daemon does not answer: \(error.message)")
    }
  }

  deinit {
    stop()
  }

  /// The daemon's process id.
  public var pid: Int32 { process.pid }

  /// Stops the daemon (SIGTERM, then SIGKILL after two seconds) and removes its directory.
  public func stop() {
    if process.exitStatus == nil { process.terminate(grace: .seconds(2)) }
    removeDirectory(directory)
  }

  private static func configuration(socket: String, serviceDirectories: [String]) -> String {
    let services = serviceDirectories.map { "  <servicedir>\(xmlEscaped($0))</servicedir>" }.joined(separator: "\n")
    return """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>session</type>
        <listen>unix:path=\(xmlEscaped(socket))</listen>
        <auth>EXTERNAL</auth>
      \(services)
        <policy context="default">
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
          <allow own="*"/>
        </policy>
        <limit name="max_incoming_bytes">1000000000</limit>
        <limit name="max_incoming_unix_fds">250000000</limit>
        <limit name="max_outgoing_bytes">1000000000</limit>
        <limit name="max_outgoing_unix_fds">250000000</limit>
        <limit name="max_message_size">1000000000</limit>
        <limit name="service_start_timeout">120000</limit>
        <limit name="auth_timeout">240000</limit>
        <limit name="pending_fd_timeout">150000</limit>
        <limit name="max_completed_connections">100000</limit>
        <limit name="max_incomplete_connections">10000</limit>
        <limit name="max_connections_per_user">100000</limit>
        <limit name="max_pending_service_starts">10000</limit>
        <limit name="max_names_per_connection">50000</limit>
        <limit name="max_match_rules_per_connection">50000</limit>
        <limit name="max_replies_per_connection">50000</limit>
      </busconfig>

      """
  }
}

private func xmlEscaped(_ text: String) -> String {
  text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
}

/// Writes `text` to a new file at `path`; returns whether it worked.
private func writeFile(_ path: String, _ text: String) -> Bool {
  do {
    try FileDescriptor.open(path, [.writeOnly, .create, .exclusive], permissions: 0o600).writeAll(text)
    return true
  } catch {
    return false
  }
}

private func removeDirectory(_ path: String) {
  for name in ["bus.conf", "bus"] { try? FileSystem.removeFile(path + "/" + name) }
  try? FileSystem.removeDirectory(path)
}
