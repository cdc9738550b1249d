package dev.perflab.notifier.notification;

/** How a notification reaches its recipient. */
public enum Channel {

	SMS, MAIL

}
