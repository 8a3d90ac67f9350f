package org.jheartbeat.director.table;

/** Which columns {@code ipvsadm -L -n} shows: the default, {@code --stats} or {@code --rate}. */
public enum ListView { DEFAULT, STATS, RATE }
