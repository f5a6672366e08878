/// The Spawn module; see README.md, "Architecture".
public enum SpawnModule {}
