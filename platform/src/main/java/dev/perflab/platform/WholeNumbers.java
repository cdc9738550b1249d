package dev.perflab.platform;

import java.math.BigDecimal;
import java.util.function.Function;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * Whole-number body fields ({@code int}, {@code long} and their boxes) take a JSON number without a fraction, as the
 * OpenAPI documents' {@code integer} says: {@code 3} and {@code 3.0}, never {@code 3.5} (Jackson's own reading cuts it
 * to 3, a value the caller never sent) nor the text {@code "3"}. Anything else is a 400 naming the field.
 */
final class WholeNumbers extends SimpleModule {

	WholeNumbers() {
		super("perflab-whole-numbers");
		addDeserializer(Long.class, new Whole<>(Long.class, BigDecimal::longValueExact, null));
		addDeserializer(Long.TYPE, new Whole<>(Long.TYPE, BigDecimal::longValueExact, 0L));
		addDeserializer(Integer.class, new Whole<>(Integer.class, BigDecimal::intValueExact, null));
		addDeserializer(Integer.TYPE, new Whole<>(Integer.TYPE, BigDecimal::intValueExact, 0));
	}

	private static final class Whole<T> extends StdScalarDeserializer<T> {

		private final Function<BigDecimal, T> exact;

		/** what a JSON null or a missing field is (0 for a primitive, as Jackson's own reading has it) */
		private final T none;

		Whole(Class<?> type, Function<BigDecimal, T> exact, T none) {
			super(type);
			this.exact = exact;
			this.none = none;
		}

		@Override
		@SuppressWarnings("unchecked")
		public T deserialize(JsonParser p, DeserializationContext ctxt) {
			JsonToken token = p.currentToken();
			if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
				return (T) ctxt.handleUnexpectedToken(handledType(), p);
			}
			BigDecimal value = p.getDecimalValue();
			try {
				return exact.apply(value.stripTrailingZeros());
			}
			catch (ArithmeticException e) {
				return (T) ctxt.handleWeirdNumberValue(handledType(), value, "not a whole number in the field's range");
			}
		}

		@Override
		public Object getNullValue(DeserializationContext ctxt) {
			return none;
		}
	}
}
