/// The DeepLink module; see README.md, "Architecture".
public enum DeepLinkModule {}
