import Hummingbird
public enum ServerPlaceholder {}
