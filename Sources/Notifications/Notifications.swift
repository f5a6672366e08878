/// The Notifications module; see README.md, "Architecture".
public enum NotificationsModule {}
