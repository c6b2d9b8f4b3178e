// Python's words in DRF's messages (issue 32, item 5), ported from tests/test_serializer.py
// (test_invalid_datatype, test_validate_none_data) and tests/test_validation.py
// (TestAvoidValidation): a body that is not a JSON object is named by the Python type json.loads
// makes of it. The other bodies were sent to DRF 3.18's ModelViewSet with the answers below.

import { fromArray } from '@pagewise/memory-adapter';
import { ApiRequest, type ApiResponse, ModelViewSet, type WriteValues } from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

class NoteViewSet extends ModelViewSet<{ id: number; text: string }> {
  override paginationClass = null;
  override queryset = fromArray([{ id: 1, text: 'first' }]);
  override writableFields = ['text'];
  override performCreate = (values: WriteValues) => ({ id: 2, text: String(values.text) });
}

const create = NoteViewSet.actions({ post: 'create' });

async function post(body: string) {
  const request = new ApiRequest({
    url: 'http://testserver/notes/',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const response = (await create(request)) as ApiResponse;
  return { status: response.status, body: JSON.parse(String(response.data)) };
}

const invalid = (datatype: string) => ({
  status: 400,
  body: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${datatype}.`] },
});

describe('a body that is not an object', () => {
  it('test_invalid_datatype: a list', async () => {
    expect(await post('[{"char": "abc"}]')).toEqual(invalid('list'));
  });

  it('test_serializer_errors_has_only_invalid_data_error: a string is str', async () => {
    expect(await post('"invalid data"')).toEqual(invalid('str'));
  });

  it('test_validate_none_data: JSON null is "No data provided"', async () => {
    expect(await post('null')).toEqual({ status: 400, body: { non_field_errors: ['No data provided'] } });
  });

  it('numbers are int or float as json.loads reads their text; booleans are bool', async () => {
    for (const [text, datatype] of [
      ['1', 'int'],
      ['-0', 'int'],
      ['12345678901234567890', 'int'],
      ['1.0', 'float'],
      ['1e3', 'float'],
      ['-1.5E-3', 'float'],
      [' 7 ', 'int'],
      ['true', 'bool'],
      ['false', 'bool'],
    ] as const) {
      expect([text, await post(text)]).toEqual([text, invalid(datatype)]);
    }
  });

  it('an empty body is an empty object: each field is required', async () => {
    expect(await post('')).toEqual({ status: 400, body: { text: ['This field is required.'] } });
    expect(await post('{}')).toEqual({ status: 400, body: { text: ['This field is required.'] } });
  });
});
