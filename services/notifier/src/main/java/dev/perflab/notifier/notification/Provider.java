package dev.perflab.notifier.notification;

/** Sends one notification over one channel; called with no transaction open, except by the lab baseline. */
interface Provider {

	Channel channel();

	void send(Claimed notification) throws DeliveryFailure;
}
