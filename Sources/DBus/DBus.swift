/// The DBus module; see README.md, "Architecture".
public enum DBusModule {}
