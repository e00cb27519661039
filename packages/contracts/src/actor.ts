/** Who is calling: built by the gateway from the credentials, trusted by the services. */
export interface Actor {
  id: number;
  login: string;
  isAdmin: boolean;
  /** Token scopes (`all`, `read:repository`, …); `null` for password authentication (everything allowed). */
  scopes: string[] | null;
}

/** The envelope of every request on the transport. */
export interface RpcRequest<P = Record<string, string>, B = undefined, Q = Record<string, unknown>> {
  actor: Actor | null;
  params: P;
  body: B;
  query: Q;
  requestId: string;
}
