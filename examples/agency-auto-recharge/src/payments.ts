/**
 * The agency's payment provider, as the receiver sees it. Pass the idempotency_key on to it as
 * its own idempotency key (most providers take one): a charge retried after a crash then returns
 * the first payment instead of charging the card again.
 */
export interface Payments {
  /** Charges the sub-account's customer; throws PaymentDeclined when the card is refused. */
  charge(input: {
    customerEmail: string;
    amountCents: number;
    idempotencyKey: string;
    description: string;
  }): Promise<{ paymentId: string }>;
}

export class PaymentDeclined extends Error {
  override name = "PaymentDeclined";
}

/** A provider in memory for the demo and tests: idempotent by key, with cards that can be declined. */
export function fakePayments(options: { declined?: string[] } = {}) {
  const payments = new Map<string, { paymentId: string; customerEmail: string; amountCents: number; description: string }>();
  const provider: Payments & { payments: typeof payments } = {
    payments,
    async charge({ customerEmail, amountCents, idempotencyKey, description }) {
      const earlier = payments.get(idempotencyKey);
      if (earlier) return { paymentId: earlier.paymentId };
      if (options.declined?.includes(customerEmail)) throw new PaymentDeclined(`The card of ${customerEmail} was declined.`);
      const paymentId = `pay_${payments.size + 1}`;
      payments.set(idempotencyKey, { paymentId, customerEmail, amountCents, description });
      return { paymentId };
    },
  };
  return provider;
}
