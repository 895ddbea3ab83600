import { createDefaultHttpClient, type HttpClient } from '@azure/core-rest-pipeline';
import { AZURE_TEST } from './credentials.js';

/**
 * The transport the tests give @azure/identity: MSAL insists on an https authority, so the tests
 * name `AZURE_TEST.authorityHost` and this client sends those requests to the fake Entra endpoint
 * on loopback instead (everything else goes out unchanged).
 */
export function entraTestTransport(fakeUrl: string): HttpClient {
  const inner = createDefaultHttpClient();
  return {
    sendRequest: (request) => {
      if (request.url.startsWith(AZURE_TEST.authorityHost)) {
        request.url = fakeUrl + request.url.slice(AZURE_TEST.authorityHost.length);
        request.allowInsecureConnection = true;
      }
      return inner.sendRequest(request);
    },
  };
}
