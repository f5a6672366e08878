/// The Localization module; see README.md, "Architecture".
public enum LocalizationModule {}
