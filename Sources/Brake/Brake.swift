/// The Brake module; see README.md, "Architecture".
public enum BrakeModule {}
