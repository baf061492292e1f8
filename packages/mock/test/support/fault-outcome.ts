/**
 * What a request met under seeded chaos, as one comparable value: the status of an answer
 * read whole, `'cut'` for a body that broke off, or what `onReset` names a request that got
 * no answer. Two runs with the same seed must give the same list.
 */
export async function faultOutcome(
  sent: Promise<Response>,
  onReset: (error: unknown) => string,
): Promise<string | number> {
  const response = await sent.catch(onReset);
  if (typeof response === 'string') return response;
  return response.text().then(
    () => response.status,
    () => 'cut',
  );
}
