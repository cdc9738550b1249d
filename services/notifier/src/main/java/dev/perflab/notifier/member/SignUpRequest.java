package dev.perflab.notifier.member;

/** A sign-up; the password is hashed before anything is written and never stored or logged as given. */
record SignUpRequest(String email, String name, String password) {

	@Override
	public String toString() {
		return "SignUpRequest[email=" + email + ", name=" + name + ", password=(hidden)]";
	}
}
